"""The pygame-ce front end: camera, drawing layers, the offscreen renderer (the only pygame user).

pygame prints a greeting on import; the command line's output must stay clean.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
