/**
 * The trained-policy runtime, below agents/ and training/ (both import it; it imports only
 * env/): the network's weights and its forward pass (WebAssembly or plain JS, the same bits),
 * the masked categorical policy (argmax, sampling, log-probabilities), and the checkpoint file
 * format.
 */
export * from './affine.ts';
export * from './checkpoint.ts';
export * from './masked.ts';
export * from './weights.ts';
