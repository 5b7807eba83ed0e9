/**
 * The build writes the bundled version of every library the engine reaches inside of
 * (tsup.config.ts's list, `__FINALITY_LIBRARY_VERSIONS__`); a library missing there reads as an
 * unknown version in dist/, and the engine's paths through it stay off there without a word.
 */
import { describe, expect, it } from 'vitest'
import { ENGINE_LIBRARIES as BUILT } from '../../tsup.config.js'
import { ENGINE_LIBRARIES } from '../../src/execution/engine/version.js'

describe('the build\'s list of engine libraries', () => {
  it('default: is the engine\'s own list', () => {
    expect([...BUILT]).toEqual([...ENGINE_LIBRARIES])
  })
})
