from tactical.cli import main

if __name__ == "__main__":  # not when a spawned odds process imports the main module
    raise SystemExit(main())
