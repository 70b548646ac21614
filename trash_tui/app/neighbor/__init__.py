"""Help Your Neighbor's screens: its board, dialogs, replay and the widgets they share."""
