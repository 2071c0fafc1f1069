"""tactical.dice"""
