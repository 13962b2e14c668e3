# unicodedata: category, combining, decomposition and the canonical
# normalization forms (NFD, NFC) over the Unicode 14.0 data (CPython 3.11's)
# of the blocks that scripts normalising European text meet: U+0000-U+052F
# (Latin, combining diacritics, Greek, Cyrillic) and U+1E00-U+206F (Latin and
# Greek extended, general punctuation). A character outside them raises
# NotImplementedError instead of getting a guessed answer. The tables below
# are facts of the Unicode Character Database: category runs as
# "<first code point hex><category>", single-step canonical decompositions,
# nonzero canonical combining classes, and the composites NFC leaves
# decomposed (singletons, non-starter decompositions and exclusions).
unidata_version = '14.0.0'

_CATEGORY_RUNS = (
    '0Cc 20Zs 21Po 24Sc 25Po 28Ps 29Pe 2aPo 2bSm 2cPo 2dPd 2ePo 30Nd 3aPo '
    '3cSm 3fPo 41Lu 5bPs 5cPo 5dPe 5eSk 5fPc 60Sk 61Ll 7bPs 7cSm 7dPe 7eSm '
    '7fCc a0Zs a1Po a2Sc a6So a7Po a8Sk a9So aaLo abPi acSm adCf aeSo afSk '
    'b0So b1Sm b2No b4Sk b5Ll b6Po b8Sk b9No baLo bbPf bcNo bfPo c0Lu d7Sm '
    'd8Lu dfLl f7Sm f8Ll 100Lu 101Ll 102Lu 103Ll 104Lu 105Ll 106Lu 107Ll '
    '108Lu 109Ll 10aLu 10bLl 10cLu 10dLl 10eLu 10fLl 110Lu 111Ll 112Lu 113Ll '
    '114Lu 115Ll 116Lu 117Ll 118Lu 119Ll 11aLu 11bLl 11cLu 11dLl 11eLu 11fLl '
    '120Lu 121Ll 122Lu 123Ll 124Lu 125Ll 126Lu 127Ll 128Lu 129Ll 12aLu 12bLl '
    '12cLu 12dLl 12eLu 12fLl 130Lu 131Ll 132Lu 133Ll 134Lu 135Ll 136Lu 137Ll '
    '139Lu 13aLl 13bLu 13cLl 13dLu 13eLl 13fLu 140Ll 141Lu 142Ll 143Lu 144Ll '
    '145Lu 146Ll 147Lu 148Ll 14aLu 14bLl 14cLu 14dLl 14eLu 14fLl 150Lu 151Ll '
    '152Lu 153Ll 154Lu 155Ll 156Lu 157Ll 158Lu 159Ll 15aLu 15bLl 15cLu 15dLl '
    '15eLu 15fLl 160Lu 161Ll 162Lu 163Ll 164Lu 165Ll 166Lu 167Ll 168Lu 169Ll '
    '16aLu 16bLl 16cLu 16dLl 16eLu 16fLl 170Lu 171Ll 172Lu 173Ll 174Lu 175Ll '
    '176Lu 177Ll 178Lu 17aLl 17bLu 17cLl 17dLu 17eLl 181Lu 183Ll 184Lu 185Ll '
    '186Lu 188Ll 189Lu 18cLl 18eLu 192Ll 193Lu 195Ll 196Lu 199Ll 19cLu 19eLl '
    '19fLu 1a1Ll 1a2Lu 1a3Ll 1a4Lu 1a5Ll 1a6Lu 1a8Ll 1a9Lu 1aaLl 1acLu 1adLl '
    '1aeLu 1b0Ll 1b1Lu 1b4Ll 1b5Lu 1b6Ll 1b7Lu 1b9Ll 1bbLo 1bcLu 1bdLl 1c0Lo '
    '1c4Lu 1c5Lt 1c6Ll 1c7Lu 1c8Lt 1c9Ll 1caLu 1cbLt 1ccLl 1cdLu 1ceLl 1cfLu '
    '1d0Ll 1d1Lu 1d2Ll 1d3Lu 1d4Ll 1d5Lu 1d6Ll 1d7Lu 1d8Ll 1d9Lu 1daLl 1dbLu '
    '1dcLl 1deLu 1dfLl 1e0Lu 1e1Ll 1e2Lu 1e3Ll 1e4Lu 1e5Ll 1e6Lu 1e7Ll 1e8Lu '
    '1e9Ll 1eaLu 1ebLl 1ecLu 1edLl 1eeLu 1efLl 1f1Lu 1f2Lt 1f3Ll 1f4Lu 1f5Ll '
    '1f6Lu 1f9Ll 1faLu 1fbLl 1fcLu 1fdLl 1feLu 1ffLl 200Lu 201Ll 202Lu 203Ll '
    '204Lu 205Ll 206Lu 207Ll 208Lu 209Ll 20aLu 20bLl 20cLu 20dLl 20eLu 20fLl '
    '210Lu 211Ll 212Lu 213Ll 214Lu 215Ll 216Lu 217Ll 218Lu 219Ll 21aLu 21bLl '
    '21cLu 21dLl 21eLu 21fLl 220Lu 221Ll 222Lu 223Ll 224Lu 225Ll 226Lu 227Ll '
    '228Lu 229Ll 22aLu 22bLl 22cLu 22dLl 22eLu 22fLl 230Lu 231Ll 232Lu 233Ll '
    '23aLu 23cLl 23dLu 23fLl 241Lu 242Ll 243Lu 247Ll 248Lu 249Ll 24aLu 24bLl '
    '24cLu 24dLl 24eLu 24fLl 294Lo 295Ll 2b0Lm 2c2Sk 2c6Lm 2d2Sk 2e0Lm 2e5Sk '
    '2ecLm 2edSk 2eeLm 2efSk 300Mn 370Lu 371Ll 372Lu 373Ll 374Lm 375Sk 376Lu '
    '377Ll 378Cn 37aLm 37bLl 37ePo 37fLu 380Cn 384Sk 386Lu 387Po 388Lu 38bCn '
    '38cLu 38dCn 38eLu 390Ll 391Lu 3a2Cn 3a3Lu 3acLl 3cfLu 3d0Ll 3d2Lu 3d5Ll '
    '3d8Lu 3d9Ll 3daLu 3dbLl 3dcLu 3ddLl 3deLu 3dfLl 3e0Lu 3e1Ll 3e2Lu 3e3Ll '
    '3e4Lu 3e5Ll 3e6Lu 3e7Ll 3e8Lu 3e9Ll 3eaLu 3ebLl 3ecLu 3edLl 3eeLu 3efLl '
    '3f4Lu 3f5Ll 3f6Sm 3f7Lu 3f8Ll 3f9Lu 3fbLl 3fdLu 430Ll 460Lu 461Ll 462Lu '
    '463Ll 464Lu 465Ll 466Lu 467Ll 468Lu 469Ll 46aLu 46bLl 46cLu 46dLl 46eLu '
    '46fLl 470Lu 471Ll 472Lu 473Ll 474Lu 475Ll 476Lu 477Ll 478Lu 479Ll 47aLu '
    '47bLl 47cLu 47dLl 47eLu 47fLl 480Lu 481Ll 482So 483Mn 488Me 48aLu 48bLl '
    '48cLu 48dLl 48eLu 48fLl 490Lu 491Ll 492Lu 493Ll 494Lu 495Ll 496Lu 497Ll '
    '498Lu 499Ll 49aLu 49bLl 49cLu 49dLl 49eLu 49fLl 4a0Lu 4a1Ll 4a2Lu 4a3Ll '
    '4a4Lu 4a5Ll 4a6Lu 4a7Ll 4a8Lu 4a9Ll 4aaLu 4abLl 4acLu 4adLl 4aeLu 4afLl '
    '4b0Lu 4b1Ll 4b2Lu 4b3Ll 4b4Lu 4b5Ll 4b6Lu 4b7Ll 4b8Lu 4b9Ll 4baLu 4bbLl '
    '4bcLu 4bdLl 4beLu 4bfLl 4c0Lu 4c2Ll 4c3Lu 4c4Ll 4c5Lu 4c6Ll 4c7Lu 4c8Ll '
    '4c9Lu 4caLl 4cbLu 4ccLl 4cdLu 4ceLl 4d0Lu 4d1Ll 4d2Lu 4d3Ll 4d4Lu 4d5Ll '
    '4d6Lu 4d7Ll 4d8Lu 4d9Ll 4daLu 4dbLl 4dcLu 4ddLl 4deLu 4dfLl 4e0Lu 4e1Ll '
    '4e2Lu 4e3Ll 4e4Lu 4e5Ll 4e6Lu 4e7Ll 4e8Lu 4e9Ll 4eaLu 4ebLl 4ecLu 4edLl '
    '4eeLu 4efLl 4f0Lu 4f1Ll 4f2Lu 4f3Ll 4f4Lu 4f5Ll 4f6Lu 4f7Ll 4f8Lu 4f9Ll '
    '4faLu 4fbLl 4fcLu 4fdLl 4feLu 4ffLl 500Lu 501Ll 502Lu 503Ll 504Lu 505Ll '
    '506Lu 507Ll 508Lu 509Ll 50aLu 50bLl 50cLu 50dLl 50eLu 50fLl 510Lu 511Ll '
    '512Lu 513Ll 514Lu 515Ll 516Lu 517Ll 518Lu 519Ll 51aLu 51bLl 51cLu 51dLl '
    '51eLu 51fLl 520Lu 521Ll 522Lu 523Ll 524Lu 525Ll 526Lu 527Ll 528Lu 529Ll '
    '52aLu 52bLl 52cLu 52dLl 52eLu 52fLl 530-- 1e00Lu 1e01Ll 1e02Lu 1e03Ll '
    '1e04Lu 1e05Ll 1e06Lu 1e07Ll 1e08Lu 1e09Ll 1e0aLu 1e0bLl 1e0cLu 1e0dLl '
    '1e0eLu 1e0fLl 1e10Lu 1e11Ll 1e12Lu 1e13Ll 1e14Lu 1e15Ll 1e16Lu 1e17Ll '
    '1e18Lu 1e19Ll 1e1aLu 1e1bLl 1e1cLu 1e1dLl 1e1eLu 1e1fLl 1e20Lu 1e21Ll '
    '1e22Lu 1e23Ll 1e24Lu 1e25Ll 1e26Lu 1e27Ll 1e28Lu 1e29Ll 1e2aLu 1e2bLl '
    '1e2cLu 1e2dLl 1e2eLu 1e2fLl 1e30Lu 1e31Ll 1e32Lu 1e33Ll 1e34Lu 1e35Ll '
    '1e36Lu 1e37Ll 1e38Lu 1e39Ll 1e3aLu 1e3bLl 1e3cLu 1e3dLl 1e3eLu 1e3fLl '
    '1e40Lu 1e41Ll 1e42Lu 1e43Ll 1e44Lu 1e45Ll 1e46Lu 1e47Ll 1e48Lu 1e49Ll '
    '1e4aLu 1e4bLl 1e4cLu 1e4dLl 1e4eLu 1e4fLl 1e50Lu 1e51Ll 1e52Lu 1e53Ll '
    '1e54Lu 1e55Ll 1e56Lu 1e57Ll 1e58Lu 1e59Ll 1e5aLu 1e5bLl 1e5cLu 1e5dLl '
    '1e5eLu 1e5fLl 1e60Lu 1e61Ll 1e62Lu 1e63Ll 1e64Lu 1e65Ll 1e66Lu 1e67Ll '
    '1e68Lu 1e69Ll 1e6aLu 1e6bLl 1e6cLu 1e6dLl 1e6eLu 1e6fLl 1e70Lu 1e71Ll '
    '1e72Lu 1e73Ll 1e74Lu 1e75Ll 1e76Lu 1e77Ll 1e78Lu 1e79Ll 1e7aLu 1e7bLl '
    '1e7cLu 1e7dLl 1e7eLu 1e7fLl 1e80Lu 1e81Ll 1e82Lu 1e83Ll 1e84Lu 1e85Ll '
    '1e86Lu 1e87Ll 1e88Lu 1e89Ll 1e8aLu 1e8bLl 1e8cLu 1e8dLl 1e8eLu 1e8fLl '
    '1e90Lu 1e91Ll 1e92Lu 1e93Ll 1e94Lu 1e95Ll 1e9eLu 1e9fLl 1ea0Lu 1ea1Ll '
    '1ea2Lu 1ea3Ll 1ea4Lu 1ea5Ll 1ea6Lu 1ea7Ll 1ea8Lu 1ea9Ll 1eaaLu 1eabLl '
    '1eacLu 1eadLl 1eaeLu 1eafLl 1eb0Lu 1eb1Ll 1eb2Lu 1eb3Ll 1eb4Lu 1eb5Ll '
    '1eb6Lu 1eb7Ll 1eb8Lu 1eb9Ll 1ebaLu 1ebbLl 1ebcLu 1ebdLl 1ebeLu 1ebfLl '
    '1ec0Lu 1ec1Ll 1ec2Lu 1ec3Ll 1ec4Lu 1ec5Ll 1ec6Lu 1ec7Ll 1ec8Lu 1ec9Ll '
    '1ecaLu 1ecbLl 1eccLu 1ecdLl 1eceLu 1ecfLl 1ed0Lu 1ed1Ll 1ed2Lu 1ed3Ll '
    '1ed4Lu 1ed5Ll 1ed6Lu 1ed7Ll 1ed8Lu 1ed9Ll 1edaLu 1edbLl 1edcLu 1eddLl '
    '1edeLu 1edfLl 1ee0Lu 1ee1Ll 1ee2Lu 1ee3Ll 1ee4Lu 1ee5Ll 1ee6Lu 1ee7Ll '
    '1ee8Lu 1ee9Ll 1eeaLu 1eebLl 1eecLu 1eedLl 1eeeLu 1eefLl 1ef0Lu 1ef1Ll '
    '1ef2Lu 1ef3Ll 1ef4Lu 1ef5Ll 1ef6Lu 1ef7Ll 1ef8Lu 1ef9Ll 1efaLu 1efbLl '
    '1efcLu 1efdLl 1efeLu 1effLl 1f08Lu 1f10Ll 1f16Cn 1f18Lu 1f1eCn 1f20Ll '
    '1f28Lu 1f30Ll 1f38Lu 1f40Ll 1f46Cn 1f48Lu 1f4eCn 1f50Ll 1f58Cn 1f59Lu '
    '1f5aCn 1f5bLu 1f5cCn 1f5dLu 1f5eCn 1f5fLu 1f60Ll 1f68Lu 1f70Ll 1f7eCn '
    '1f80Ll 1f88Lt 1f90Ll 1f98Lt 1fa0Ll 1fa8Lt 1fb0Ll 1fb5Cn 1fb6Ll 1fb8Lu '
    '1fbcLt 1fbdSk 1fbeLl 1fbfSk 1fc2Ll 1fc5Cn 1fc6Ll 1fc8Lu 1fccLt 1fcdSk '
    '1fd0Ll 1fd4Cn 1fd6Ll 1fd8Lu 1fdcCn 1fddSk 1fe0Ll 1fe8Lu 1fedSk 1ff0Cn '
    '1ff2Ll 1ff5Cn 1ff6Ll 1ff8Lu 1ffcLt 1ffdSk 1fffCn 2000Zs 200bCf 2010Pd '
    '2016Po 2018Pi 2019Pf 201aPs 201bPi 201dPf 201ePs 201fPi 2020Po 2028Zl '
    '2029Zp 202aCf 202fZs 2030Po 2039Pi 203aPf 203bPo 203fPc 2041Po 2044Sm '
    '2045Ps 2046Pe 2047Po 2052Sm 2053Po 2054Pc 2055Po 205fZs 2060Cf 2065Cn '
    '2066Cf 2070--')

_DECOMPOSITION = (
    'c0=0041+0300 c1=0041+0301 c2=0041+0302 c3=0041+0303 c4=0041+0308 '
    'c5=0041+030A c7=0043+0327 c8=0045+0300 c9=0045+0301 ca=0045+0302 '
    'cb=0045+0308 cc=0049+0300 cd=0049+0301 ce=0049+0302 cf=0049+0308 '
    'd1=004E+0303 d2=004F+0300 d3=004F+0301 d4=004F+0302 d5=004F+0303 '
    'd6=004F+0308 d9=0055+0300 da=0055+0301 db=0055+0302 dc=0055+0308 '
    'dd=0059+0301 e0=0061+0300 e1=0061+0301 e2=0061+0302 e3=0061+0303 '
    'e4=0061+0308 e5=0061+030A e7=0063+0327 e8=0065+0300 e9=0065+0301 '
    'ea=0065+0302 eb=0065+0308 ec=0069+0300 ed=0069+0301 ee=0069+0302 '
    'ef=0069+0308 f1=006E+0303 f2=006F+0300 f3=006F+0301 f4=006F+0302 '
    'f5=006F+0303 f6=006F+0308 f9=0075+0300 fa=0075+0301 fb=0075+0302 '
    'fc=0075+0308 fd=0079+0301 ff=0079+0308 100=0041+0304 101=0061+0304 '
    '102=0041+0306 103=0061+0306 104=0041+0328 105=0061+0328 106=0043+0301 '
    '107=0063+0301 108=0043+0302 109=0063+0302 10a=0043+0307 10b=0063+0307 '
    '10c=0043+030C 10d=0063+030C 10e=0044+030C 10f=0064+030C 112=0045+0304 '
    '113=0065+0304 114=0045+0306 115=0065+0306 116=0045+0307 117=0065+0307 '
    '118=0045+0328 119=0065+0328 11a=0045+030C 11b=0065+030C 11c=0047+0302 '
    '11d=0067+0302 11e=0047+0306 11f=0067+0306 120=0047+0307 121=0067+0307 '
    '122=0047+0327 123=0067+0327 124=0048+0302 125=0068+0302 128=0049+0303 '
    '129=0069+0303 12a=0049+0304 12b=0069+0304 12c=0049+0306 12d=0069+0306 '
    '12e=0049+0328 12f=0069+0328 130=0049+0307 134=004A+0302 135=006A+0302 '
    '136=004B+0327 137=006B+0327 139=004C+0301 13a=006C+0301 13b=004C+0327 '
    '13c=006C+0327 13d=004C+030C 13e=006C+030C 143=004E+0301 144=006E+0301 '
    '145=004E+0327 146=006E+0327 147=004E+030C 148=006E+030C 14c=004F+0304 '
    '14d=006F+0304 14e=004F+0306 14f=006F+0306 150=004F+030B 151=006F+030B '
    '154=0052+0301 155=0072+0301 156=0052+0327 157=0072+0327 158=0052+030C '
    '159=0072+030C 15a=0053+0301 15b=0073+0301 15c=0053+0302 15d=0073+0302 '
    '15e=0053+0327 15f=0073+0327 160=0053+030C 161=0073+030C 162=0054+0327 '
    '163=0074+0327 164=0054+030C 165=0074+030C 168=0055+0303 169=0075+0303 '
    '16a=0055+0304 16b=0075+0304 16c=0055+0306 16d=0075+0306 16e=0055+030A '
    '16f=0075+030A 170=0055+030B 171=0075+030B 172=0055+0328 173=0075+0328 '
    '174=0057+0302 175=0077+0302 176=0059+0302 177=0079+0302 178=0059+0308 '
    '179=005A+0301 17a=007A+0301 17b=005A+0307 17c=007A+0307 17d=005A+030C '
    '17e=007A+030C 1a0=004F+031B 1a1=006F+031B 1af=0055+031B 1b0=0075+031B '
    '1cd=0041+030C 1ce=0061+030C 1cf=0049+030C 1d0=0069+030C 1d1=004F+030C '
    '1d2=006F+030C 1d3=0055+030C 1d4=0075+030C 1d5=00DC+0304 1d6=00FC+0304 '
    '1d7=00DC+0301 1d8=00FC+0301 1d9=00DC+030C 1da=00FC+030C 1db=00DC+0300 '
    '1dc=00FC+0300 1de=00C4+0304 1df=00E4+0304 1e0=0226+0304 1e1=0227+0304 '
    '1e2=00C6+0304 1e3=00E6+0304 1e6=0047+030C 1e7=0067+030C 1e8=004B+030C '
    '1e9=006B+030C 1ea=004F+0328 1eb=006F+0328 1ec=01EA+0304 1ed=01EB+0304 '
    '1ee=01B7+030C 1ef=0292+030C 1f0=006A+030C 1f4=0047+0301 1f5=0067+0301 '
    '1f8=004E+0300 1f9=006E+0300 1fa=00C5+0301 1fb=00E5+0301 1fc=00C6+0301 '
    '1fd=00E6+0301 1fe=00D8+0301 1ff=00F8+0301 200=0041+030F 201=0061+030F '
    '202=0041+0311 203=0061+0311 204=0045+030F 205=0065+030F 206=0045+0311 '
    '207=0065+0311 208=0049+030F 209=0069+030F 20a=0049+0311 20b=0069+0311 '
    '20c=004F+030F 20d=006F+030F 20e=004F+0311 20f=006F+0311 210=0052+030F '
    '211=0072+030F 212=0052+0311 213=0072+0311 214=0055+030F 215=0075+030F '
    '216=0055+0311 217=0075+0311 218=0053+0326 219=0073+0326 21a=0054+0326 '
    '21b=0074+0326 21e=0048+030C 21f=0068+030C 226=0041+0307 227=0061+0307 '
    '228=0045+0327 229=0065+0327 22a=00D6+0304 22b=00F6+0304 22c=00D5+0304 '
    '22d=00F5+0304 22e=004F+0307 22f=006F+0307 230=022E+0304 231=022F+0304 '
    '232=0059+0304 233=0079+0304 340=0300 341=0301 343=0313 344=0308+0301 '
    '374=02B9 37e=003B 385=00A8+0301 386=0391+0301 387=00B7 388=0395+0301 '
    '389=0397+0301 38a=0399+0301 38c=039F+0301 38e=03A5+0301 38f=03A9+0301 '
    '390=03CA+0301 3aa=0399+0308 3ab=03A5+0308 3ac=03B1+0301 3ad=03B5+0301 '
    '3ae=03B7+0301 3af=03B9+0301 3b0=03CB+0301 3ca=03B9+0308 3cb=03C5+0308 '
    '3cc=03BF+0301 3cd=03C5+0301 3ce=03C9+0301 3d3=03D2+0301 3d4=03D2+0308 '
    '400=0415+0300 401=0415+0308 403=0413+0301 407=0406+0308 40c=041A+0301 '
    '40d=0418+0300 40e=0423+0306 419=0418+0306 439=0438+0306 450=0435+0300 '
    '451=0435+0308 453=0433+0301 457=0456+0308 45c=043A+0301 45d=0438+0300 '
    '45e=0443+0306 476=0474+030F 477=0475+030F 4c1=0416+0306 4c2=0436+0306 '
    '4d0=0410+0306 4d1=0430+0306 4d2=0410+0308 4d3=0430+0308 4d6=0415+0306 '
    '4d7=0435+0306 4da=04D8+0308 4db=04D9+0308 4dc=0416+0308 4dd=0436+0308 '
    '4de=0417+0308 4df=0437+0308 4e2=0418+0304 4e3=0438+0304 4e4=0418+0308 '
    '4e5=0438+0308 4e6=041E+0308 4e7=043E+0308 4ea=04E8+0308 4eb=04E9+0308 '
    '4ec=042D+0308 4ed=044D+0308 4ee=0423+0304 4ef=0443+0304 4f0=0423+0308 '
    '4f1=0443+0308 4f2=0423+030B 4f3=0443+030B 4f4=0427+0308 4f5=0447+0308 '
    '4f8=042B+0308 4f9=044B+0308 1e00=0041+0325 1e01=0061+0325 1e02=0042+0307 '
    '1e03=0062+0307 1e04=0042+0323 1e05=0062+0323 1e06=0042+0331 '
    '1e07=0062+0331 1e08=00C7+0301 1e09=00E7+0301 1e0a=0044+0307 '
    '1e0b=0064+0307 1e0c=0044+0323 1e0d=0064+0323 1e0e=0044+0331 '
    '1e0f=0064+0331 1e10=0044+0327 1e11=0064+0327 1e12=0044+032D '
    '1e13=0064+032D 1e14=0112+0300 1e15=0113+0300 1e16=0112+0301 '
    '1e17=0113+0301 1e18=0045+032D 1e19=0065+032D 1e1a=0045+0330 '
    '1e1b=0065+0330 1e1c=0228+0306 1e1d=0229+0306 1e1e=0046+0307 '
    '1e1f=0066+0307 1e20=0047+0304 1e21=0067+0304 1e22=0048+0307 '
    '1e23=0068+0307 1e24=0048+0323 1e25=0068+0323 1e26=0048+0308 '
    '1e27=0068+0308 1e28=0048+0327 1e29=0068+0327 1e2a=0048+032E '
    '1e2b=0068+032E 1e2c=0049+0330 1e2d=0069+0330 1e2e=00CF+0301 '
    '1e2f=00EF+0301 1e30=004B+0301 1e31=006B+0301 1e32=004B+0323 '
    '1e33=006B+0323 1e34=004B+0331 1e35=006B+0331 1e36=004C+0323 '
    '1e37=006C+0323 1e38=1E36+0304 1e39=1E37+0304 1e3a=004C+0331 '
    '1e3b=006C+0331 1e3c=004C+032D 1e3d=006C+032D 1e3e=004D+0301 '
    '1e3f=006D+0301 1e40=004D+0307 1e41=006D+0307 1e42=004D+0323 '
    '1e43=006D+0323 1e44=004E+0307 1e45=006E+0307 1e46=004E+0323 '
    '1e47=006E+0323 1e48=004E+0331 1e49=006E+0331 1e4a=004E+032D '
    '1e4b=006E+032D 1e4c=00D5+0301 1e4d=00F5+0301 1e4e=00D5+0308 '
    '1e4f=00F5+0308 1e50=014C+0300 1e51=014D+0300 1e52=014C+0301 '
    '1e53=014D+0301 1e54=0050+0301 1e55=0070+0301 1e56=0050+0307 '
    '1e57=0070+0307 1e58=0052+0307 1e59=0072+0307 1e5a=0052+0323 '
    '1e5b=0072+0323 1e5c=1E5A+0304 1e5d=1E5B+0304 1e5e=0052+0331 '
    '1e5f=0072+0331 1e60=0053+0307 1e61=0073+0307 1e62=0053+0323 '
    '1e63=0073+0323 1e64=015A+0307 1e65=015B+0307 1e66=0160+0307 '
    '1e67=0161+0307 1e68=1E62+0307 1e69=1E63+0307 1e6a=0054+0307 '
    '1e6b=0074+0307 1e6c=0054+0323 1e6d=0074+0323 1e6e=0054+0331 '
    '1e6f=0074+0331 1e70=0054+032D 1e71=0074+032D 1e72=0055+0324 '
    '1e73=0075+0324 1e74=0055+0330 1e75=0075+0330 1e76=0055+032D '
    '1e77=0075+032D 1e78=0168+0301 1e79=0169+0301 1e7a=016A+0308 '
    '1e7b=016B+0308 1e7c=0056+0303 1e7d=0076+0303 1e7e=0056+0323 '
    '1e7f=0076+0323 1e80=0057+0300 1e81=0077+0300 1e82=0057+0301 '
    '1e83=0077+0301 1e84=0057+0308 1e85=0077+0308 1e86=0057+0307 '
    '1e87=0077+0307 1e88=0057+0323 1e89=0077+0323 1e8a=0058+0307 '
    '1e8b=0078+0307 1e8c=0058+0308 1e8d=0078+0308 1e8e=0059+0307 '
    '1e8f=0079+0307 1e90=005A+0302 1e91=007A+0302 1e92=005A+0323 '
    '1e93=007A+0323 1e94=005A+0331 1e95=007A+0331 1e96=0068+0331 '
    '1e97=0074+0308 1e98=0077+030A 1e99=0079+030A 1e9b=017F+0307 '
    '1ea0=0041+0323 1ea1=0061+0323 1ea2=0041+0309 1ea3=0061+0309 '
    '1ea4=00C2+0301 1ea5=00E2+0301 1ea6=00C2+0300 1ea7=00E2+0300 '
    '1ea8=00C2+0309 1ea9=00E2+0309 1eaa=00C2+0303 1eab=00E2+0303 '
    '1eac=1EA0+0302 1ead=1EA1+0302 1eae=0102+0301 1eaf=0103+0301 '
    '1eb0=0102+0300 1eb1=0103+0300 1eb2=0102+0309 1eb3=0103+0309 '
    '1eb4=0102+0303 1eb5=0103+0303 1eb6=1EA0+0306 1eb7=1EA1+0306 '
    '1eb8=0045+0323 1eb9=0065+0323 1eba=0045+0309 1ebb=0065+0309 '
    '1ebc=0045+0303 1ebd=0065+0303 1ebe=00CA+0301 1ebf=00EA+0301 '
    '1ec0=00CA+0300 1ec1=00EA+0300 1ec2=00CA+0309 1ec3=00EA+0309 '
    '1ec4=00CA+0303 1ec5=00EA+0303 1ec6=1EB8+0302 1ec7=1EB9+0302 '
    '1ec8=0049+0309 1ec9=0069+0309 1eca=0049+0323 1ecb=0069+0323 '
    '1ecc=004F+0323 1ecd=006F+0323 1ece=004F+0309 1ecf=006F+0309 '
    '1ed0=00D4+0301 1ed1=00F4+0301 1ed2=00D4+0300 1ed3=00F4+0300 '
    '1ed4=00D4+0309 1ed5=00F4+0309 1ed6=00D4+0303 1ed7=00F4+0303 '
    '1ed8=1ECC+0302 1ed9=1ECD+0302 1eda=01A0+0301 1edb=01A1+0301 '
    '1edc=01A0+0300 1edd=01A1+0300 1ede=01A0+0309 1edf=01A1+0309 '
    '1ee0=01A0+0303 1ee1=01A1+0303 1ee2=01A0+0323 1ee3=01A1+0323 '
    '1ee4=0055+0323 1ee5=0075+0323 1ee6=0055+0309 1ee7=0075+0309 '
    '1ee8=01AF+0301 1ee9=01B0+0301 1eea=01AF+0300 1eeb=01B0+0300 '
    '1eec=01AF+0309 1eed=01B0+0309 1eee=01AF+0303 1eef=01B0+0303 '
    '1ef0=01AF+0323 1ef1=01B0+0323 1ef2=0059+0300 1ef3=0079+0300 '
    '1ef4=0059+0323 1ef5=0079+0323 1ef6=0059+0309 1ef7=0079+0309 '
    '1ef8=0059+0303 1ef9=0079+0303 1f00=03B1+0313 1f01=03B1+0314 '
    '1f02=1F00+0300 1f03=1F01+0300 1f04=1F00+0301 1f05=1F01+0301 '
    '1f06=1F00+0342 1f07=1F01+0342 1f08=0391+0313 1f09=0391+0314 '
    '1f0a=1F08+0300 1f0b=1F09+0300 1f0c=1F08+0301 1f0d=1F09+0301 '
    '1f0e=1F08+0342 1f0f=1F09+0342 1f10=03B5+0313 1f11=03B5+0314 '
    '1f12=1F10+0300 1f13=1F11+0300 1f14=1F10+0301 1f15=1F11+0301 '
    '1f18=0395+0313 1f19=0395+0314 1f1a=1F18+0300 1f1b=1F19+0300 '
    '1f1c=1F18+0301 1f1d=1F19+0301 1f20=03B7+0313 1f21=03B7+0314 '
    '1f22=1F20+0300 1f23=1F21+0300 1f24=1F20+0301 1f25=1F21+0301 '
    '1f26=1F20+0342 1f27=1F21+0342 1f28=0397+0313 1f29=0397+0314 '
    '1f2a=1F28+0300 1f2b=1F29+0300 1f2c=1F28+0301 1f2d=1F29+0301 '
    '1f2e=1F28+0342 1f2f=1F29+0342 1f30=03B9+0313 1f31=03B9+0314 '
    '1f32=1F30+0300 1f33=1F31+0300 1f34=1F30+0301 1f35=1F31+0301 '
    '1f36=1F30+0342 1f37=1F31+0342 1f38=0399+0313 1f39=0399+0314 '
    '1f3a=1F38+0300 1f3b=1F39+0300 1f3c=1F38+0301 1f3d=1F39+0301 '
    '1f3e=1F38+0342 1f3f=1F39+0342 1f40=03BF+0313 1f41=03BF+0314 '
    '1f42=1F40+0300 1f43=1F41+0300 1f44=1F40+0301 1f45=1F41+0301 '
    '1f48=039F+0313 1f49=039F+0314 1f4a=1F48+0300 1f4b=1F49+0300 '
    '1f4c=1F48+0301 1f4d=1F49+0301 1f50=03C5+0313 1f51=03C5+0314 '
    '1f52=1F50+0300 1f53=1F51+0300 1f54=1F50+0301 1f55=1F51+0301 '
    '1f56=1F50+0342 1f57=1F51+0342 1f59=03A5+0314 1f5b=1F59+0300 '
    '1f5d=1F59+0301 1f5f=1F59+0342 1f60=03C9+0313 1f61=03C9+0314 '
    '1f62=1F60+0300 1f63=1F61+0300 1f64=1F60+0301 1f65=1F61+0301 '
    '1f66=1F60+0342 1f67=1F61+0342 1f68=03A9+0313 1f69=03A9+0314 '
    '1f6a=1F68+0300 1f6b=1F69+0300 1f6c=1F68+0301 1f6d=1F69+0301 '
    '1f6e=1F68+0342 1f6f=1F69+0342 1f70=03B1+0300 1f71=03AC 1f72=03B5+0300 '
    '1f73=03AD 1f74=03B7+0300 1f75=03AE 1f76=03B9+0300 1f77=03AF '
    '1f78=03BF+0300 1f79=03CC 1f7a=03C5+0300 1f7b=03CD 1f7c=03C9+0300 '
    '1f7d=03CE 1f80=1F00+0345 1f81=1F01+0345 1f82=1F02+0345 1f83=1F03+0345 '
    '1f84=1F04+0345 1f85=1F05+0345 1f86=1F06+0345 1f87=1F07+0345 '
    '1f88=1F08+0345 1f89=1F09+0345 1f8a=1F0A+0345 1f8b=1F0B+0345 '
    '1f8c=1F0C+0345 1f8d=1F0D+0345 1f8e=1F0E+0345 1f8f=1F0F+0345 '
    '1f90=1F20+0345 1f91=1F21+0345 1f92=1F22+0345 1f93=1F23+0345 '
    '1f94=1F24+0345 1f95=1F25+0345 1f96=1F26+0345 1f97=1F27+0345 '
    '1f98=1F28+0345 1f99=1F29+0345 1f9a=1F2A+0345 1f9b=1F2B+0345 '
    '1f9c=1F2C+0345 1f9d=1F2D+0345 1f9e=1F2E+0345 1f9f=1F2F+0345 '
    '1fa0=1F60+0345 1fa1=1F61+0345 1fa2=1F62+0345 1fa3=1F63+0345 '
    '1fa4=1F64+0345 1fa5=1F65+0345 1fa6=1F66+0345 1fa7=1F67+0345 '
    '1fa8=1F68+0345 1fa9=1F69+0345 1faa=1F6A+0345 1fab=1F6B+0345 '
    '1fac=1F6C+0345 1fad=1F6D+0345 1fae=1F6E+0345 1faf=1F6F+0345 '
    '1fb0=03B1+0306 1fb1=03B1+0304 1fb2=1F70+0345 1fb3=03B1+0345 '
    '1fb4=03AC+0345 1fb6=03B1+0342 1fb7=1FB6+0345 1fb8=0391+0306 '
    '1fb9=0391+0304 1fba=0391+0300 1fbb=0386 1fbc=0391+0345 1fbe=03B9 '
    '1fc1=00A8+0342 1fc2=1F74+0345 1fc3=03B7+0345 1fc4=03AE+0345 '
    '1fc6=03B7+0342 1fc7=1FC6+0345 1fc8=0395+0300 1fc9=0388 1fca=0397+0300 '
    '1fcb=0389 1fcc=0397+0345 1fcd=1FBF+0300 1fce=1FBF+0301 1fcf=1FBF+0342 '
    '1fd0=03B9+0306 1fd1=03B9+0304 1fd2=03CA+0300 1fd3=0390 1fd6=03B9+0342 '
    '1fd7=03CA+0342 1fd8=0399+0306 1fd9=0399+0304 1fda=0399+0300 1fdb=038A '
    '1fdd=1FFE+0300 1fde=1FFE+0301 1fdf=1FFE+0342 1fe0=03C5+0306 '
    '1fe1=03C5+0304 1fe2=03CB+0300 1fe3=03B0 1fe4=03C1+0313 1fe5=03C1+0314 '
    '1fe6=03C5+0342 1fe7=03CB+0342 1fe8=03A5+0306 1fe9=03A5+0304 '
    '1fea=03A5+0300 1feb=038E 1fec=03A1+0314 1fed=00A8+0300 1fee=0385 '
    '1fef=0060 1ff2=1F7C+0345 1ff3=03C9+0345 1ff4=03CE+0345 1ff6=03C9+0342 '
    '1ff7=1FF6+0345 1ff8=039F+0300 1ff9=038C 1ffa=03A9+0300 1ffb=038F '
    '1ffc=03A9+0345 1ffd=00B4 2000=2002 2001=2003')

_COMBINING = (
    '300:230 301:230 302:230 303:230 304:230 305:230 306:230 307:230 308:230 '
    '309:230 30a:230 30b:230 30c:230 30d:230 30e:230 30f:230 310:230 311:230 '
    '312:230 313:230 314:230 315:232 316:220 317:220 318:220 319:220 31a:232 '
    '31b:216 31c:220 31d:220 31e:220 31f:220 320:220 321:202 322:202 323:220 '
    '324:220 325:220 326:220 327:202 328:202 329:220 32a:220 32b:220 32c:220 '
    '32d:220 32e:220 32f:220 330:220 331:220 332:220 333:220 334:1 335:1 '
    '336:1 337:1 338:1 339:220 33a:220 33b:220 33c:220 33d:230 33e:230 '
    '33f:230 340:230 341:230 342:230 343:230 344:230 345:240 346:230 347:220 '
    '348:220 349:220 34a:230 34b:230 34c:230 34d:220 34e:220 350:230 351:230 '
    '352:230 353:220 354:220 355:220 356:220 357:230 358:232 359:220 35a:220 '
    '35b:230 35c:233 35d:234 35e:234 35f:233 360:234 361:234 362:233 363:230 '
    '364:230 365:230 366:230 367:230 368:230 369:230 36a:230 36b:230 36c:230 '
    '36d:230 36e:230 36f:230 483:230 484:230 485:230 486:230 487:230')

_NO_COMPOSE = (
    '340 341 343 344 374 37e 387 1f71 1f73 1f75 1f77 1f79 1f7b 1f7d 1fbb 1fbe '
    '1fc9 1fcb 1fd3 1fdb 1fe3 1feb 1fee 1fef 1ff9 1ffb 1ffd 2000 2001')

_COVERED = ((0x0, 0x530), (0x1E00, 0x2070))
_cache = {}


def _tables():
    if not _cache:
        starts, cats = [], []
        for run in _CATEGORY_RUNS.split():
            starts.append(int(run[:-2], 16))
            cats.append(run[-2:])
        decomp = {}
        for item in _DECOMPOSITION.split():
            cp, parts = item.split('=')
            decomp[int(cp, 16)] = [int(p, 16) for p in parts.split('+')]
        ccc = {}
        for item in _COMBINING.split():
            cp, k = item.split(':')
            ccc[int(cp, 16)] = int(k)
        excluded = set(int(cp, 16) for cp in _NO_COMPOSE.split())
        compose = {}
        for cp, parts in decomp.items():
            if len(parts) == 2 and cp not in excluded:
                compose[(parts[0], parts[1])] = cp
        _cache.update(starts=starts, cats=cats, decomp=decomp, ccc=ccc, compose=compose)
    return _cache


def _code(fn, chr_):
    if not isinstance(chr_, str):
        raise TypeError(fn + "() argument must be a unicode character, not " + type(chr_).__name__)
    if len(chr_) != 1:
        raise TypeError(fn + "() argument must be a unicode character, not str")
    cp = ord(chr_)
    for lo, hi in _COVERED:
        if lo <= cp < hi:
            return cp
    raise NotImplementedError("kiln's unicodedata covers U+0000-U+052F and U+1E00-U+206F, not U+%04X" % cp)


def category(chr_):
    cp = _code('category', chr_)
    t = _tables()
    starts = t['starts']
    lo, hi = 0, len(starts) - 1
    while lo < hi:  # the last run starting at or before cp
        mid = (lo + hi + 1) // 2
        if starts[mid] <= cp:
            lo = mid
        else:
            hi = mid - 1
    return t['cats'][lo]


def combining(chr_):
    return _tables()['ccc'].get(_code('combining', chr_), 0)


def decomposition(chr_):
    parts = _tables()['decomp'].get(_code('decomposition', chr_))
    return ' '.join('%04X' % p for p in parts) if parts else ''


def _decompose(cp, decomp, out):
    parts = decomp.get(cp)
    if parts is None:
        out.append(cp)
        return
    for p in parts:
        _decompose(p, decomp, out)


# NFD: full canonical decomposition, then marks sorted (stably) by class.
def _nfd(s):
    t = _tables()
    decomp, ccc = t['decomp'], t['ccc']
    cps = []
    for ch in s:
        _decompose(_code('normalize', ch), decomp, cps)
    i = 0
    while i < len(cps):
        if ccc.get(cps[i], 0) == 0:
            i += 1
            continue
        j = i
        while j < len(cps) and ccc.get(cps[j], 0) != 0:
            j += 1
        cps[i:j] = sorted(cps[i:j], key=lambda c: ccc[c])
        i = j
    return cps


# NFC: NFD, then each mark joins the last starter unless a mark of the same
# or a higher class (or another starter) stands between them.
def _nfc(s):
    t = _tables()
    ccc, compose = t['ccc'], t['compose']
    out = []
    starter = -1
    last_class = 0
    for cp in _nfd(s):
        k = ccc.get(cp, 0)
        adjacent = starter == len(out) - 1
        if starter >= 0 and (adjacent or (last_class != 0 and last_class < k)):
            composite = compose.get((out[starter], cp))
            if composite is not None:
                out[starter] = composite
                continue
        if k == 0:
            starter = len(out)
        out.append(cp)
        last_class = k
    return out


def normalize(form, unistr):
    if not isinstance(form, str):
        raise TypeError("normalize() argument 1 must be str, not " + type(form).__name__)
    if not isinstance(unistr, str):
        raise TypeError("normalize() argument 2 must be str, not " + type(unistr).__name__)
    if form == 'NFD':
        cps = _nfd(unistr)
    elif form == 'NFC':
        cps = _nfc(unistr)
    elif form in ('NFKD', 'NFKC'):
        raise NotImplementedError("kiln's unicodedata has no compatibility (NFKD, NFKC) forms")
    else:
        raise ValueError('invalid normalization form')
    return ''.join(chr(c) for c in cps)


def is_normalized(form, unistr):
    return normalize(form, unistr) == unistr
