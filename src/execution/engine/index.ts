/** The EVM engine: @ethereumjs/evm with finality's patches, owned and checked (see install.ts). */
export { ENGINE_ENV, VERIFIED_VERSIONS, fastPaths, libraryGate, refusal, verified, type LibraryGate } from './gate.js'
export { VERIFIED_HARDFORKS, engineStatus, installEngine, isFast, ownEvm } from './install.js'
export { OPCODE_LAYERS, layerOpcodeTable, type OpcodeLayer } from './layers.js'
export { PATCHES, type EnginePatch, type EngineStatus } from './status.js'
export { createEngineEVM, createEngineVM } from './vm.js'
export { activeEipsKey, createNodeCommon, depositContractAddress, isNodeCommon, paramsKey, type NodeCommon } from './common.js'
