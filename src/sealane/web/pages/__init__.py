"""The page handlers: each parses its input, calls the application layer and renders a template."""
