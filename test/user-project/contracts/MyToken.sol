// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// An OpenZeppelin ERC20 whose owner can mint; everyone else gets OwnableUnauthorizedAccount.
contract MyToken is ERC20, Ownable {
    constructor(uint256 supply) ERC20("My Token", "MTK") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
