from hsx.cli.main import main

main()
