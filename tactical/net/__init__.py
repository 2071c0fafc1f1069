"""Online play: a server that holds the game (`server`), the players' and watchers' copies
(`client`), and the messages between them (`protocol`). Dice neither player can foresee
or choose come from `dice.fair`."""
