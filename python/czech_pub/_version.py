"""The package's version. The engine it starts must be czech-pub-gym of the same version (the
bridge's handshake, _bridge.Bridge, checks); bridge/bridge.test.ts checks package.json says so too."""

__version__ = "0.1.0"
