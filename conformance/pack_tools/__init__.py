"""pack_tools"""
