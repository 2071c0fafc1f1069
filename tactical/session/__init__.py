"""tactical.session"""
