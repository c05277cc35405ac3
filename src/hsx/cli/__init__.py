"""Command-line front end (`hsx …`)."""
