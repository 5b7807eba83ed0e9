/**
 * The ports method handlers receive (src/services.ts): tsc refuses a handler that writes the
 * producer's or the pool's state, or the controls' switches, other than through their one writer
 * (test/types/handler-ports.ts marks each refused line and the reason).
 */
import { describeMarkedFile } from '../helpers/tsc-markers.js'

describeMarkedFile('tsc on handlers that write state they do not own', 'test/types/handler-ports.ts', 10)
