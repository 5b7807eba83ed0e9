/** geth's `noopTracer`: runs the transaction and reports nothing (`{}`); useful to time a replay. */
import type { Tracer } from './types.js'

/** geth's `noopTracer`. */
export class NoopTracer implements Tracer {
  readonly wantsSteps = false

  result(): unknown {
    return {}
  }
}
