import { checkWorkerChains } from './worker-chains.js'

checkWorkerChains('second')
