"""The admin's forms: the shapes of what directors and officers type; the rules live in the services."""
