// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A contract whose runtime code is 30,000 bytes, past EIP-170's 24,576: it deploys only where
/// the code size limit is off (Hardhat's allowUnlimitedContractSize).
contract Big {
    constructor() {
        assembly {
            return(0, 30000)
        }
    }
}
