"""The preflight window: the checks before a round on one calm screen."""
