import sys

from zonkcam.cli import main

sys.exit(main())
