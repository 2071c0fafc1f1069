"""tactical.io"""
