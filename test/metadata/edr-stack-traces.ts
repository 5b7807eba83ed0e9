/**
 * Defines one test per EDR stack-trace scenario under a folder (see edr-scenarios.ts): a scenario
 * listed in edr-stack-traces.json as not applicable is left out with its reason; one listed there
 * as differing must still differ (the list is kept true: a fix makes its test fail until the entry
 * is removed); every other one must show the trace EDR expects.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { bundle, difference, run } from './edr-scenarios.js'

const HERE = path.dirname(fileURLToPath(import.meta.url))
/** The scenarios that do not apply and those that differ, each with why. */
export const lists = JSON.parse(readFileSync(path.join(HERE, 'edr-stack-traces.json'), 'utf8')) as {
  notApplicable: Record<string, string>
  differing: Record<string, string>
}

/** The tests of the scenarios `include` accepts, under `label`. */
export function defineScenarios(label: string, include: (name: string) => boolean): void {
  const names = Object.keys(bundle.scenarios).filter(include)
  describe(`EDR's stack-trace fixtures: ${label}`, () => {
    it('there are scenarios under these folders', () => expect(names.length).toBeGreaterThan(0))
    for (const name of names) {
      const why = lists.notApplicable[name]
      if (why !== undefined) {
        it.skip(`${name} (not applicable: ${why})`, () => {})
        continue
      }
      const differs = lists.differing[name]
      it(differs === undefined ? name : `${name} still differs: ${differs}`, { timeout: 30_000 }, async () => {
        const found = difference(await run(name))
        if (differs === undefined) expect(found).toBeUndefined()
        else expect(found, 'this scenario now passes: remove it from edr-stack-traces.json').toBeDefined()
      })
    }
  })
}
