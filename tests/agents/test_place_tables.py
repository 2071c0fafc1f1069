"""The tables a computer player measures its units' candidate places in, where models block
sight (R002.41): what is kept from table to table (a base's outline at a place, the level
mask of `blocks_los`) reads as working it out again, and the tables' blocking is the
one `np.unique` of the (terrain, model) level pairs gives."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import shapely

from tactical.agents.evaluation import Material, Position
from tactical.geometry.shapes import footprint
from tactical.io import builtin_map, load_map
from tactical.model import units as units_module
from tactical.rules import measuring
from tactical.rules.base import ModelBlocking
from tactical.rules.measuring import TableGeometry
from tactical.session.game import Game


def _game():
    return Game.new(load_map(builtin_map("dystopian-wars")), 1)


def test_a_copy_at_a_place_has_the_outline_of_its_base_there_kept_for_the_game():
    game = _game()
    position = Position(game, Material(game))
    assert not position._shared  # models block sight: every outline is read
    unit = game.state.units[0]
    moved = replace(unit.pose, x=unit.x + 2.5, heading=unit.heading + 30.0)
    first = position._copy(unit, 1, moved)
    again = Position(game, position.material)._copy(unit, 4, moved)
    assert first.id == f"{unit.id}#1" and first.pose == moved
    assert shapely.equals_exact(first.footprint, footprint(moved, unit.base), tolerance=0.0)
    assert again.footprint is first.footprint  # remembered by pose and base
    here = position._copy(unit, 0, None)
    assert here.pose == unit.pose and here.footprint is unit.footprint


def test_scored_places_are_the_same_with_outlines_remembered_or_not():
    game = _game()
    unit = game.state.units[0]
    poses = [None, replace(unit.pose, x=unit.x + 3), replace(unit.pose, y=unit.y - 2)]
    material = Material(game)
    first = Position(game, material).reach_many(unit.id, poses)
    kept = units_module._FOOTPRINTS
    assert all((p, unit.base) in kept for p in poses[1:])  # the moved places' outlines were kept
    again = Position(game, material).reach_many(unit.id, poses)
    fresh = Position(game, Material(game)).reach_many(unit.id, poses)
    assert again == first == fresh
    assert any(r.holds or r.held_by for r in first) or len({r.nearest for r in first}) == 3


def _level_mask_fresh(system, state):
    """`blocks_los` of every piece between the first units of each two levels, asked now."""
    levels = {}
    for unit in state.units:
        levels.setdefault(system.los_level(unit), unit)
    names = list(levels) or [""]
    mask = np.zeros((len(names), len(names), len(state.terrain)), dtype=bool)
    for a, name_a in enumerate(names):
        for b, name_b in enumerate(names):
            for t, piece in enumerate(state.terrain):
                mask[a, b, t] = system.blocks_los(piece, levels.get(name_a), levels.get(name_b))
    return mask


def test_table_blocking_reads_as_made_afresh():
    game = _game()
    state, system = game.state, game.system
    measuring._LEVEL_MASKS.clear()
    first = TableGeometry.of(state, system)
    kept = TableGeometry.of(state, system)  # the level mask remembered
    assert measuring._LEVEL_MASKS
    models = system.model_blocking(state)
    assert models is not None
    terrain = measuring._level_blocking(system, state)
    assert np.array_equal(terrain.mask, _level_mask_fresh(system, state))
    # the (terrain, model) level pairs as np.unique of the rows numbers them
    pairs = np.stack((terrain.levels, np.asarray(models.levels, dtype=np.int64)), axis=1)
    found, codes = np.unique(pairs, axis=0, return_inverse=True)
    for geometry in (first, kept):
        assert np.array_equal(geometry.blocking.levels, codes.reshape(-1))
        on_terrain, on_models = found[:, 0], found[:, 1]
        expected = np.concatenate(
            (
                terrain.mask[on_terrain[:, None], on_terrain[None, :]],
                np.asarray(models.mask, dtype=bool)[on_models[:, None], on_models[None, :]],
            ),
            axis=2,
        )
        assert np.array_equal(geometry.blocking.mask, expected)
    assert first.blocking.mask[..., : len(state.terrain)].any()  # some terrain blocks


def test_model_levels_of_mixed_codes_are_numbered_as_unique_rows():
    """Several terrain and model codes: the pairs numbered in the rows' order ((0, 3) before
    (1, 0): the terrain code first), each row's mask the terrain's then the models'."""
    terrain = measuring.LevelBlocking(np.array([2, 0, 1, 2, 0]), np.ones((3, 3, 1), dtype=bool))
    models = ModelBlocking(
        np.array([0, 3]), np.array([1, 3, 0, 1, 3]), np.ones((4, 4, 2), dtype=bool)
    )
    found = measuring._with_models(terrain, models)
    pairs = np.stack((terrain.levels, models.levels), axis=1)
    _, codes = np.unique(pairs, axis=0, return_inverse=True)
    assert found.levels.tolist() == codes.reshape(-1).tolist() == [2, 0, 1, 2, 0]
    assert found.mask.shape == (3, 3, 3)
    assert found.owners.tolist() == [-1, 0, 3]
