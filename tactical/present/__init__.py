"""What the play screen shows, decided from the `Session` without drawing anything.

The presenter layer sits between the session and the ui: it turns the game into the
small values and words the screen draws (what the action panel lists and greys and why,
the prompt line, the tracker's and the log's words, the selected unit's facts, the odds
to show, the targets a declaration may take) and never imports pygame, so all of it is
tested headless. The ui draws these values and turns input into calls on the session.
"""
