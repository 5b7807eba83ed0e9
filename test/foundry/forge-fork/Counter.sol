// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Counter {
    uint256 public count;
    function increment() external { count += 1; }
    function set(uint256 value) external { count = value; }
}
