#!/usr/bin/env bash
echo "deploying"
