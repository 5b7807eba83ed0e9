// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Hardhat's sample contract: funds locked until a timestamp.
contract Lock {
    uint256 public unlockTime;
    address payable public owner;

    event Withdrawal(uint256 amount, uint256 when);

    constructor(uint256 _unlockTime) payable {
        require(block.timestamp < _unlockTime, "Unlock time should be in the future");
        unlockTime = _unlockTime;
        owner = payable(msg.sender);
    }

    function withdraw() public {
        require(block.timestamp >= unlockTime, "You can't withdraw yet");
        require(msg.sender == owner, "You aren't the owner");
        emit Withdrawal(address(this).balance, block.timestamp);
        (bool sent, ) = owner.call{value: address(this).balance}("");
        require(sent, "transfer failed");
    }
}
