/** `czech-pub --version`: the package's version and the versions that make results comparable (env/spec.ts). */
import {
  ACTION_SPACE_VERSION, DEFAULT_RULESET, ENGINE_VERSION, NUM_ACTIONS, OBS_SIZE, OBSERVATION_VERSION, RULESET_SCHEMA_VERSION,
  rulesetFingerprint,
} from '../env/index.ts';
import { PACKAGE } from '../eval/index.ts';

export function versionText(): string {
  return [
    `${PACKAGE.name} ${PACKAGE.version}`,
    `engine ${ENGINE_VERSION}, action space ${ACTION_SPACE_VERSION} (${NUM_ACTIONS} actions), observation ${OBSERVATION_VERSION} (${OBS_SIZE} floats), ruleset schema ${RULESET_SCHEMA_VERSION}`,
    `default ruleset ${DEFAULT_RULESET.name} (fingerprint ${rulesetFingerprint(DEFAULT_RULESET)})`,
    `Node ${process.version}`,
  ].join('\n');
}

