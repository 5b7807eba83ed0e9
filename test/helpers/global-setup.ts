import { compileFixtures } from './compile.js';

/** vitest globalSetup: compile the Solidity fixtures once per run (cached on disk). */
export default async function setup(): Promise<void> {
  await compileFixtures();
}
