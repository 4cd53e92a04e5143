"""Discord views and persistent buttons: thin, they call the table service and redraw."""
