"""Custom fields: an account's own fields (definitions, with options for the enumerations) and
their values on its shipments, containers and tracking requests."""
