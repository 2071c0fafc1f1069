from tactical.cli import main

raise SystemExit(main())
