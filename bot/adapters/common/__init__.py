"""What the chat front-ends share: the button codec."""
