from companion.entry import main

raise SystemExit(main())
