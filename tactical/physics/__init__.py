"""tactical.physics"""
