"""Boards that run the C executive (port/c/): building the host board's native program
(`build`), and serving it (`hsx board run`)."""
