"""The bridge's wire constants. Their source is bridge/protocol.ts in the engine's repository;
bridge/bridge.test.ts fails if this copy disagrees with it."""

#: The wire format's version; the engine's INFO answer must name the same (see _bridge.handshake).
PROTOCOL_VERSION = 1

OP_INFO = 1
OP_ENV_NEW = 2
OP_ENV_RESET = 3
OP_ENV_STEP = 4
OP_ENV_RENDER = 5
OP_ENV_OBSERVE = 6
OP_CLOSE = 7
OP_VEC_NEW = 10
OP_VEC_RESET = 11
OP_VEC_STEP = 12

STATUS_OK = 0
STATUS_ERROR = 1

MAX_REQUEST_BYTES = 8 * 1024 * 1024

NO_SEAT = 255
