"""Rule systems: one package each, plus the shared protocol and the registry."""

from tactical.rules import registry

registry.register("battlefleet-mars", "tactical.rules.battlefleet_mars")
registry.register("heavy-combat", "tactical.rules.heavy_combat")
registry.register("dystopian-wars", "tactical.rules.dystopian_wars")
registry.register("cortex-space", "tactical.rules.cortex_space")
registry.register("sw-d6-capital", "tactical.rules.sw_d6_capital")
