/** Registers the ismcts agent. */
