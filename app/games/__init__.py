"""Pure rules engines. Nothing in this package does I/O or imports a framework."""
