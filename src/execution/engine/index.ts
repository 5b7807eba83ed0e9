/** The EVM engine: @ethereumjs/evm with finality's patches, owned and checked (see install.ts). */
export { ENGINE_ENV, VERIFIED_HARDFORKS, VERIFIED_VERSIONS, engineStatus, installEngine, isFast, ownEvm, refusal } from './install.js'
export { OPCODE_LAYERS, layerOpcodeTable, type OpcodeLayer } from './layers.js'
export { PATCHES, type EnginePatch, type EngineStatus } from './status.js'
export { createEngineEVM, createEngineVM } from './vm.js'
