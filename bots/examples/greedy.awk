# The awk half of greedy_awk.sh: one protocol message a line in, one answer a line out.
# The runner writes compact JSON with "type" first, so a few patterns find what a greedy
# player needs: its seat and the card roles (in hello), the decision, the legal actions,
# the discard pile, its layout.

function text(name) {        # the string value of the first "name":"..."
    if (match($0, "\"" name "\":\"[^\"]*\""))
        return substr($0, RSTART + length(name) + 4, RLENGTH - length(name) - 5)
    return ""
}
function number(name) {      # the integer value of the first "name":N
    if (match($0, "\"" name "\":-?[0-9]+"))
        return substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 3) + 0
    return -1
}
function items(name) {       # what is inside the first "name":[...] (no nested brackets)
    if (match($0, "\"" name "\":\\[[^]]*\\]"))
        return substr($0, RSTART + length(name) + 4, RLENGTH - length(name) - 5)
    return ""
}
function unquote(s) { gsub(/"/, "", s); return s }
function rank(card) { return substr(card, 1, length(card) - 1) }   # "10H" -> "10"
function answer(line) { print line; fflush() }

function fits(card,    r, held) {   # does card fit a face-down or wild-held slot of mine?
    r = role[rank(card)]
    if (r == 0) {
        for (i = 1; i <= slots; i++) if (slot[i] == "null") return 1
        return 0
    }
    if (r > slots) return 0
    held = slot[r]
    return held == "null" || role[rank(unquote(held))] == 0
}

function my_layout(    all, seats, seat) {   # slot[1..slots] of my layout (my_seat's)
    if (!match($0, /"layouts":\[\[.*\]\],"first"/)) { slots = 0; return }
    all = substr($0, RSTART + 12, RLENGTH - 22)   # [..],[..] without the outer brackets
    seats = split(all, per_seat, /\],\[/)
    seat = my_seat + 1
    gsub(/[\[\]]/, "", per_seat[seat])
    slots = split(per_seat[seat], slot, ",")
}

{
    type = text("type")
    if (type == "hello") {
        my_seat = number("seat")   # the observations leave it out: they are all mine
        match($0, /"roles":\{[^}]*\}/)
        n = split(substr($0, RSTART + 9, RLENGTH - 10), pairs, ",")
        for (k = 1; k <= n; k++) {
            split(pairs[k], kv, ":")
            role[unquote(kv[1])] = kv[2] + 0
        }
        answer("{\"type\":\"hello\",\"name\":\"awk-greedy\",\"author\":\"trash-tui examples\",\"version\":\"1\",\"protocol\":2}")
    } else if (type == "decide") {
        decision = text("decision")
        legal = items("legal")
        if (decision == "draw") {
            count = split(items("discard"), pile, ",")
            top = count > 0 ? unquote(pile[count]) : ""
            my_layout()
            if (index(legal, "\"discard\"") && top != "" && fits(top))
                answer("{\"action\":\"discard\"}")
            else
                answer("{\"action\":\"stock\"}")
        } else if (decision == "swap") {
            answer("{\"action\":\"swap\"}")
        } else if (decision == "call") {
            answer("{\"action\":\"call\"}")
        } else {
            split(legal, options, ",")
            answer("{\"action\":" options[1] "}")   # the lowest open slot for the wild
        }
    } else if (type == "match_end") {
        answer("{\"type\":\"ok\"}")
    } else if (type == "quit") {
        exit 0
    }
}
