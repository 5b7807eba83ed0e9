/** EDR's stack-trace fixtures other than calls: creations, panics, fallbacks, console logs… (edr-stack-traces.ts). */
import { defineScenarios } from './edr-stack-traces.js'

defineScenarios('creations, panics, fallbacks and the rest', (name) => !name.startsWith('0_8/call-message/'))
