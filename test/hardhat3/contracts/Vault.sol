// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Deposits per account, an owner with custom errors, a pause, and a panic on division.
contract Vault {
    address public owner;
    bool public paused;
    mapping(address => uint256) public balanceOf;

    event Deposited(address indexed account, uint256 amount);
    event Withdrawn(address indexed account, uint256 amount);
    event Paused(address by);

    error NotOwner(address caller);
    error InsufficientBalance(uint256 available, uint256 requested);

    constructor() {
        owner = msg.sender;
    }

    function deposit() external payable {
        require(!paused, "Vault: paused");
        require(msg.value > 0, "Vault: nothing sent");
        balanceOf[msg.sender] += msg.value;
        emit Deposited(msg.sender, msg.value);
    }

    function withdraw(uint256 amount) external {
        uint256 available = balanceOf[msg.sender];
        if (amount > available) revert InsufficientBalance(available, amount);
        balanceOf[msg.sender] = available - amount;
        emit Withdrawn(msg.sender, amount);
        (bool ok, ) = payable(msg.sender).call{value: amount}("");
        require(ok, "transfer failed");
    }

    function pause() external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        paused = true;
        emit Paused(msg.sender);
    }

    function share(uint256 parts) external view returns (uint256) {
        return address(this).balance / parts;
    }
}
