"""tactical.geometry"""
