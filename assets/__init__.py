"""Bundled assets (terrain library, fonts, icons), installed as package data: tactical.assets."""
