/**
 * The trained-policy runtime, below agents/ and training/ (both import it; it imports only
 * env/): the network's weights and its plain-JS forward pass, the masked categorical policy
 * (argmax, sampling, log-probabilities), and the checkpoint file format.
 */
export * from './checkpoint.ts';
export * from './masked.ts';
export * from './weights.ts';
