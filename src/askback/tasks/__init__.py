"""Tasks: work that outlives the request that started it, kept in askback's store, for any wire."""
