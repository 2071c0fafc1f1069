"""pymunk and shapely adapters: first contact along a path, overlap detection and resolution.

Never stored in the model: every call builds what it needs from immutable units
and terrain and returns new values.
"""
