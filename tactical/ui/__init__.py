"""tactical.ui"""
