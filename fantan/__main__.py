from fantan.cli import main

raise SystemExit(main())
