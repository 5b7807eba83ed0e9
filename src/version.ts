/** The package version, reported by web3_clientVersion. */
export const VERSION = '0.1.0'
