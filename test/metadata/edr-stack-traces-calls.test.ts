/** EDR's stack-trace fixtures of calls (edr-stack-traces.ts). */
import { defineScenarios } from './edr-stack-traces.js'

defineScenarios('calls', (name) => name.startsWith('0_8/call-message/'))
