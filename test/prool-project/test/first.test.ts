import { checkWorkerChains } from './worker-chains.js'

checkWorkerChains('first')
