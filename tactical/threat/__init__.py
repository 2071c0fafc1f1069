"""Reach, threat and move advice: what a side's units can do next, and what can be done to them.

`reach` enumerates a unit's legal end positions this activation (its rule system's turning
rules, the movement planner's pivots); `heatmap` counts the enemy weapons that could bear on
each 0.5" cell and their expected damage from the exact odds (`damage`); `advice` ranks a
unit's candidate end positions by the damage it could deal next against the damage it would
take. Nothing here changes a state.
"""
