"""The balance lab: batches of AI-vs-AI games of a rule variant, stored and reported.

`specs` builds a run from a map and the command line, `plan` numbers its games and
derives their seeds, `games` plays one (the only module that calls the agents),
`pool` and `cluster` play many on this machine's cores or on Ray, `runner` stores
them as they arrive (`store`, SQLite), `report` and `stats` say what they show.
"""
