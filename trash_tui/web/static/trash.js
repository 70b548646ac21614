/* The web face's own script (textual.js draws the terminal and speaks to the server).
   It watches the page's WebSocket to say, in the line under the title, what happened:
   a refusal from the server (["refused", LINE], shown as text, never as HTML), the
   server restarting (close code 1012) or the connection lost (then it waits for
   /health and loads the page again: the cookie brings the same player back to their
   seat), or the session's end. The terminal gets the keyboard's focus once its socket
   opens. Touch taps on the terminal become mouse clicks.
   For tests, window.trashOutput() gives the last output received (read-only). */
(function () {
  "use strict";
  var NativeSocket = window.WebSocket;
  var OUTPUT_KEPT = 1 << 20;
  var received = [];
  var receivedBytes = 0;
  var refused = false;
  var polling = false;
  var saidHere = false;  /* the line holds this script's words, not the page's notice */

  function say(text) {
    var line = document.getElementById("status");
    if (line) {
      line.textContent = text;
      saidHere = text !== "";
    }
  }

  function comeBack(text) {
    if (polling) {
      return;
    }
    polling = true;
    say(text);
    var tries = 0;
    function poll() {
      tries += 1;
      fetch("/health", { cache: "no-store" }).then(function (answer) {
        if (answer.ok) {
          window.location.reload();
        } else {
          later();
        }
      }, later);
    }
    function later() {
      if (tries >= 600) {
        say("The server has not come back: reload the page to try again.");
        return;
      }
      window.setTimeout(poll, 1000);
    }
    window.setTimeout(poll, 500);
  }

  /* The keyboard goes to the terminal from the start: a visitor types their name without
     clicking on the page first (unless something else of the page has the focus). */
  function focusTerminal() {
    var area = document.querySelector("#terminal .xterm-helper-textarea");
    var active = document.activeElement;
    if (area && (!active || active === document.body)) {
      area.focus();
    }
  }

  function keep(data) {
    var bytes = new Uint8Array(data);
    received.push(bytes);
    receivedBytes += bytes.length;
    while (receivedBytes > OUTPUT_KEPT && received.length > 1) {
      receivedBytes -= received.shift().length;
    }
  }

  function watch(socket) {
    socket.addEventListener("open", function () {
      if (!refused && saidHere) {  /* (the server's notice on the page stays) */
        say("");
      }
      focusTerminal();
    });
    socket.addEventListener("message", function (event) {
      if (typeof event.data !== "string") {
        keep(event.data);
        return;
      }
      var message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (Array.isArray(message) && message[0] === "refused" &&
          typeof message[1] === "string") {
        refused = true;
        say(message[1]);
      }
    });
    socket.addEventListener("close", function (event) {
      if (refused) {
        return;
      }
      if (event.code === 1012) {
        comeBack("The server is restarting \u2014 reconnecting\u2026");
      } else if (event.code === 1000) {
        say("The session has ended: reload the page to play again.");
      } else {
        comeBack("The connection was lost \u2014 reconnecting\u2026");
      }
    });
  }

  function TrashSocket(url, protocols) {
    var socket = protocols === undefined ? new NativeSocket(url)
      : new NativeSocket(url, protocols);
    watch(socket);
    return socket;
  }
  TrashSocket.prototype = NativeSocket.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) {
    TrashSocket[name] = NativeSocket[name];
  });
  window.WebSocket = TrashSocket;

  window.trashOutput = function () {
    var all = new Uint8Array(receivedBytes);
    var at = 0;
    received.forEach(function (part) {
      all.set(part, at);
      at += part.length;
    });
    return new TextDecoder("utf-8").decode(all);
  };

  /* A tap is a click: xterm.js reads mouse events only. */
  function tapsAsClicks() {
    var terminal = document.getElementById("terminal");
    if (!terminal) {
      return;
    }
    var start = null;
    terminal.addEventListener("touchstart", function (event) {
      var touch = event.changedTouches[0];
      start = touch ? { x: touch.clientX, y: touch.clientY } : null;
    }, { passive: true });
    terminal.addEventListener("touchend", function (event) {
      var touch = event.changedTouches[0];
      if (!touch || !start || Math.abs(touch.clientX - start.x) > 10 ||
          Math.abs(touch.clientY - start.y) > 10) {
        return;
      }
      var target = document.elementFromPoint(touch.clientX, touch.clientY) || terminal;
      ["mousedown", "mouseup", "click"].forEach(function (kind) {
        target.dispatchEvent(new MouseEvent(kind, {
          bubbles: true, cancelable: true, view: window, button: 0,
          buttons: kind === "mousedown" ? 1 : 0,
          clientX: touch.clientX, clientY: touch.clientY
        }));
      });
      event.preventDefault();
    });
  }
  window.addEventListener("load", tapsAsClicks);
})();
